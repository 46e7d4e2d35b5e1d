"""Never a turn: prose with no sections, every try."""
import sys

sys.stdin.read()
print("I would rather chat than write sections.")
