"""`python -m multidebate`."""

from multidebate.cli import main

if __name__ == "__main__":
    main()
