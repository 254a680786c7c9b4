"""A stand-in benchmark module for the runner's test: it raises half-way."""


def main(argv: list[str] | None = None) -> list[tuple[str, str, str]]:
    raise RuntimeError("this benchmark broke on purpose")
