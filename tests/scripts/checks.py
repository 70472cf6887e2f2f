"""Checks that collect failures instead of raising, for the test scripts: a script checks
everything it can, prints each failure as it finds it, and reports them all at the end."""

failures = []  # what failed, in order (appended to, never replaced: importers share it)


def check(cond, what):
    """cond, after noting `what` as a failure when it is false."""
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond
