"""A translator for engine tests that shows which texts went through it: «text»."""

from __future__ import annotations


class Marking:
    """Wraps every message it translates in «»: a test sees what was worded (and what was
    left in English) without a catalog."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"«{singular if n == 1 else plural}»"
