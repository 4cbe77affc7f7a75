"""`python -m webferret ...`: the same program as the `webferret` command."""

from webferret.launch import entry

if __name__ == "__main__":  # a worker process that imports this module must not run the program
    entry()
