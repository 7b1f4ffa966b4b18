"""Re-record tests/data/session-every-action.json (after a session version bump makes the saved
one unreadable): ``python tests/make_every_action_save.py``.

It plays tests/data/shop-every-action.yaml at seed 394 answering every action question in
words, as a GM types them: doors by name and by their two areas, smothers and moves into fire
with raises, spots, a companion's clothes and the firefighting module's sand. The first copy
was written this way by fuego at commit 514ea03 (session format 3), before the one text form;
re-recorded for session format 4 (the dice drawn in batches, docs/events.md) and 5 (smoke
vents wherever its region's air does).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(DATA.parent.parent))

from fuego.table import session as sessions  # noqa: E402
from fuego.table.replay import Player, Quit  # noqa: E402

#: Verbs answered in turn, the first legal one found.
PREFERENCES = ["smother", "sand", "put-out-clothes ", "close", "open", "spot"]


class Words:
    """A table that answers in words (Enter for rounds and rolls) for 160 questions."""

    def __init__(self):
        self.n = 0

    def answer(self, q):
        self.n += 1
        if self.n > 160:
            raise Quit()
        if q.kind != "action":
            return ""
        words = [c.text(q.scene) for c in q.choices]
        for c, w in zip(q.choices, words, strict=True):
            if w.startswith("put-out-clothes "):
                return w
            if w.startswith("move") and c.target in q.scene.fires and self.n % 3 == 0:
                return w + " raise 1"
        k = self.n % 5
        for pref in PREFERENCES[k:] + PREFERENCES:
            for w in words:
                if w.startswith(pref):
                    return w + " raise 1" if pref == "smother" and k % 2 else w
        return ""

    def rejected(self, q, error):
        raise SystemExit(error.render())

    def recorded(self, player):
        pass

    def finished(self, player):
        pass


def main() -> None:
    text = (DATA / "shop-every-action.yaml").read_text()
    player = Player(sessions.new("shop.yaml", 394, text=text), Words())
    with contextlib.suppress(Quit):
        player.run()
    sessions.save(player.session, str(DATA / "session-every-action.json"))
    (DATA / "session-every-action.json.bak").unlink(missing_ok=True)  # (save keeps the last)


if __name__ == "__main__":
    main()
