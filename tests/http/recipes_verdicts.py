"""x"""
from .code_recipes import Recipes
RECIPES = Recipes()
