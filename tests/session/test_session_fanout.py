"""Fan-out: every subscriber gets every change, in order, as its own view; nobody blocks."""

from __future__ import annotations

import threading
import time
from typing import Any

from host.rules import CARD_CODES
from host.subscriptions import Update


def _drain(subscription: Any) -> list[Update]:
    updates = []
    while (update := subscription.get(timeout=0)) is not None:
        updates.append(update)
    return updates


def test_first_update_is_the_view_at_once(session: Any) -> None:
    ana = session.join("Ana", "TEST").player_id
    subscription = session.subscribe(ana)
    first = subscription.get(timeout=0)
    assert first is not None and first.view["me"]["id"] == ana
    assert first.view["players"][0]["connected"] is True


def test_connect_and_disconnect_fan_out_without_step(session: Any) -> None:
    ana = session.join("Ana", "TEST").player_id
    watcher = session.subscribe(None)
    _drain(watcher)
    phone = session.subscribe(ana)
    seen = _drain(watcher)
    assert seen and seen[-1].view["players"][0]["connected"] is True and seen[-1].step == 0
    phone.close()
    assert _drain(watcher)[-1].view["players"][0]["connected"] is False


def test_every_change_in_order_with_events_for_that_recipient(session: Any) -> None:
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    subs = {pid: session.subscribe(pid, presence=False) for pid in [*ids, None]}
    for subscription in subs.values():
        _drain(subscription)
    session.act(ids[0], "start", 0)
    for _ in range(3):
        current = session.view(None)["current"]
        session.act(current, "keep", session.step)
    for pid, subscription in subs.items():
        updates = _drain(subscription)
        assert [u.step for u in updates] == [1, 2, 3, 4]
        dealt = [e for u in updates for e in u.events if e["type"] == "card_dealt"]
        if pid is None:
            assert dealt == []  # the public never sees a dealt card
        else:
            assert [e["player"] for e in dealt] == [pid]
        for update in updates:
            assert update.view["me"] == (None if pid is None else update.view["me"])


def test_a_subscriber_that_never_reads_blocks_nobody(session: Any) -> None:
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    session.subscribe(ids[1])  # never read
    started = time.monotonic()
    session.act(ids[0], "start", 0)
    for _ in range(200):
        session.misdeal()
    assert time.monotonic() - started < 10
    assert session.step == 201


def test_concurrent_writers_deliver_in_step_order(session: Any) -> None:
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    session.act(ids[0], "start", 0)
    watcher = session.subscribe(None)
    _drain(watcher)

    def misdeal_many() -> None:
        for _ in range(30):
            session.misdeal()

    threads = [threading.Thread(target=misdeal_many) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    steps = [u.step for u in _drain(watcher)]
    assert steps == list(range(2, 122))


def test_public_updates_hold_no_hidden_card(session: Any) -> None:
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    watcher = session.subscribe(None)
    session.act(ids[0], "start", 0)
    for update in _drain(watcher):
        if update.view["phase"] == "turns":
            text = str(update.events) + str(update.view)
            leaked = {code for code in CARD_CODES if f"'{code}'" in text}
            assert all(code.startswith("K") for code in leaked), leaked


def test_issue18_phone_streams_are_written_before_woken_readers(session: Any) -> None:
    """Issue 18.1: a phone's stream is written by the thread that changes the table, while a
    subscriber waiting in ``get`` (the TV, the voice, the bots) is a thread to wake, which
    would then take the GIL from the phones still to be written: so it is pushed last, even
    when it subscribed first (as the in-process readers do, at start)."""
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    readers = [session.subscribe(None, presence=False) for _ in range(2)]
    streams = {pid: session.subscribe(pid) for pid in ids}
    for subscription in [*readers, *streams.values()]:
        _drain(subscription)
    seen_by_readers: list[int] = []

    def written(pid: str) -> None:  # runs on the pushing thread, as a stream's deliver does
        for update in streams[pid].drain():
            if update.step == 1:
                seen_by_readers.append(sum(len(r.drain()) for r in readers))

    for pid in ids:
        assert streams[pid].wakes_a_thread
        streams[pid].on_ready(lambda pid=pid: written(pid))
        assert not streams[pid].wakes_a_thread
    assert all(reader.wakes_a_thread for reader in readers)
    session.act(ids[0], "start", 0)
    assert seen_by_readers == [0, 0, 0]  # every stream was written before any reader got it
    for reader in readers:
        update = reader.get(timeout=1.0)
        assert update is not None and update.step == 1


def test_issue18_streams_attached_during_changes_get_them_in_order(session: Any) -> None:
    """Issue 18.1: changes from four threads while phones' streams are being attached (as a
    phone that connects mid-game): every stream is written its updates in step order, each
    step at most once, ending with the last change — whichever thread wrote them."""
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    session.act(ids[0], "start", 0)
    seen: list[list[int]] = []
    seen_lock = threading.Lock()

    def attach_one() -> None:
        subscription = session.subscribe(None, presence=False)
        steps: list[int] = []
        with seen_lock:
            seen.append(steps)

        def write() -> None:
            steps.extend(update.step for update in subscription.drain())

        subscription.on_ready(write)

    def misdeal_many() -> None:
        for _ in range(30):
            session.misdeal()

    def attach_many() -> None:
        for _ in range(20):
            attach_one()
            time.sleep(0.001)

    threads = [threading.Thread(target=misdeal_many) for _ in range(4)]
    threads.append(threading.Thread(target=attach_many))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert session.step == 121
    assert len(seen) == 20
    for steps in seen:
        assert steps == sorted(set(steps)), steps
        assert steps[-1] == 121
