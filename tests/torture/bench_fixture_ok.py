"""A stand-in benchmark module for the runner's test: returns one row."""


def main(argv: list[str] | None = None) -> list[tuple[str, str, str]]:
    print("a line of the module's own output")
    return [("stand-in figure", "42 ms", "<= 50 ms")]
