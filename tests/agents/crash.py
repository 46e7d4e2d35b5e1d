"""Reads the prompt, says why on stderr, exits 3."""
import sys

sys.stdin.read()
print("Traceback (most recent call last):\nRuntimeError: model exploded", file=sys.stderr)
sys.exit(3)
