"""rulecraft.validators"""
