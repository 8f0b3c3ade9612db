"""rulecraft.grammar"""
