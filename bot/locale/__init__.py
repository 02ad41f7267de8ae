"""gettext catalogs: <lang>/LC_MESSAGES/boardchat.po (source) and .mo (compiled).

This folder and each <lang>/ and <lang>/LC_MESSAGES/ below it are packages only so that
setuptools' package discovery reaches them and ships the *.po and *.mo files (pyproject's
package-data patterns are not recursive). Regenerate everything with `make i18n`
(bot/locale/update.py).
"""
