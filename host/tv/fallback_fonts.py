"""The computer's own fonts for Chinese, Japanese and Korean names, found once at start.

Why: the bundled fonts (DejaVu Sans, the Symbola emoji subset) have no CJK characters, so a
guest who joined as "李小龍" was drawn as empty boxes (last round's play-test). A CJK font is
10–20 MB, too big to ship, but most computers have one: Debian's ``fonts-noto-cjk`` or
``fonts-wqy-*``, macOS's PingFang and Hiragino, Windows' YaHei and Malgun Gothic. We ask
fontconfig (``fc-match``, where it is installed) for a font that has each sample character,
add the usual places of those fonts, and keep, for each sample, the first candidate that really
has its glyph (asked of the font file itself: fontconfig's best match may lack it).

The cost is bounded: one ``fc-match`` per sample (timed out), and each candidate opened once.
Nothing happens at import; the party calls ``find_fallback_fonts`` once when it builds the TV.
"""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

log = logging.getLogger(__name__)

#: One character of each writing system a fallback is for: a Han ideograph (Chinese, and
#: Japanese kanji), a hiragana and a Hangul syllable. These need no shaping: the TV draws
#: them one after the other, as it draws Latin letters.
CJK_SAMPLES = ("\u674e", "\u3055", "\ubbfc")  # 李 さ 민
#: Where CJK fonts usually are when fontconfig cannot say (macOS, Windows) or is missing.
KNOWN_PATHS: tuple[str, ...] = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/Hiragino Sans GB.ttc",
    "/System/Library/Fonts/AppleSDGothicNeo.ttc",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
)
#: The same for Windows, under its fonts folder.
WINDOWS_FONTS: tuple[str, ...] = ("msyh.ttc", "YuGothM.ttc", "msgothic.ttc", "malgun.ttf")
#: How long fontconfig may take to answer (it builds its cache on a first run).
FC_MATCH_SECONDS = 5.0

#: Runs a command and returns what it printed ("" when it could not run).
Runner = Callable[[Sequence[str]], str]
#: Whether the font file at a path has a glyph for a character.
HasGlyph = Callable[[Path, str], bool]


def find_fallback_fonts(
    samples: Sequence[str] = CJK_SAMPLES,
    candidates: Iterable[Path] | None = None,
    has_glyph: HasGlyph | None = None,
) -> list[Path]:
    """The fonts to fall back on for ``samples``' writing systems: for each sample, the first
    candidate that has its glyph; each font once, in the order found (often one font for all).

    ``candidates``: font files to try (default: ``system_candidates()``); ``has_glyph``: how a
    file is asked (default: ``font_has_glyph``). Tests pass both.
    """
    tried = list(system_candidates() if candidates is None else candidates)
    ask = has_glyph or font_has_glyph
    found: list[Path] = []
    for sample in samples:
        chosen = next((path for path in tried if ask(path, sample)), None)
        if chosen is None:
            log.info("no font on this computer has %r: the TV cannot draw it", sample)
        elif chosen not in found:
            found.append(chosen)
    log.info("fonts for Chinese, Japanese and Korean names: %s", found or "none")
    return found


def system_candidates(
    run: Runner | None = None,
    samples: Sequence[str] = CJK_SAMPLES,
    environ: dict[str, str] | None = None,
) -> list[Path]:
    """Font files that may have ``samples``: fontconfig's best match for each, then the usual
    places that exist. Unchecked: ``find_fallback_fonts`` asks each file."""
    run = run or _run
    environ = dict(os.environ) if environ is None else environ
    paths: list[Path] = []
    for sample in samples:  # "" where fontconfig is not installed
        pattern = f"sans-serif:charset={ord(sample):x}"
        answer = run(["fc-match", "--format", "%{file}", pattern]).strip()
        if answer:
            paths.append(Path(answer))
    windows = environ.get("WINDIR") or environ.get("SystemRoot")
    known = [Path(p) for p in KNOWN_PATHS]
    if windows:
        known += [Path(windows) / "Fonts" / name for name in WINDOWS_FONTS]
    paths += [path for path in known if path.is_file()]
    return list(dict.fromkeys(paths))  # each once, in order


def font_has_glyph(path: Path, char: str) -> bool:
    """True when the font file at ``path`` has a glyph for ``char`` (False for a missing or
    unreadable file: a broken font is no fallback)."""
    import pygame.freetype  # the TV's dependency, imported only when the TV is built

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    try:
        face = pygame.freetype.Font(str(path), 24)
        face.ucs4 = True
        return face.get_metrics(char)[0] is not None
    except (OSError, pygame.error, ValueError):
        return False


def _run(command: Sequence[str]) -> str:
    try:
        done = subprocess.run(
            list(command), capture_output=True, text=True, timeout=FC_MATCH_SECONDS, check=False
        )
    except (OSError, subprocess.SubprocessError) as error:
        log.info("%s did not answer: %s", command[0], error)
        return ""
    return done.stdout if done.returncode == 0 else ""
