"""rulecraft.interpreter"""
