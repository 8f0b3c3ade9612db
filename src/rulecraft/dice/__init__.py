"""rulecraft.dice"""
