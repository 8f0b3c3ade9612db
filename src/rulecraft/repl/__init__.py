"""rulecraft.repl"""
