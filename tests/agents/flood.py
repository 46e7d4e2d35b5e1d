"""Prints 50 MB, then would print a valid turn."""
import sys

sys.stdin.read()
block = b"x" * (1024 * 1024)
for _ in range(50):
    sys.stdout.buffer.write(block)
sys.stdout.buffer.flush()
