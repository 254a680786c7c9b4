"""Vendored pure-Python minifiers: rjsmin 1.3.0 and rcssmin 1.3.0 by André Malo (Apache 2.0).

Why vendored: both are maintained, but PyPI has only source releases of them (with an optional
C extension), and the party must install from wheels on every system it supports (issue 17).
Their pure-Python modules are copied unchanged; they run once per start-up to minify the phone
page (issue 16), so the C speed-up is not needed. Licence: ``LICENSE-Apache-2.0.txt``.
"""
