"""rulecraft.cli"""
