"""The load test's client (benchmarks/loadtest.py): a request that meets a transient connection
error is sent again and counted as a retry, not as an error; one that keeps failing is raised.
A 503 with Retry-After is sent again after it; a resync's state ends a wait for the turn. The
client's own lag is measured."""

import asyncio
import json
import random
import time

import httpx
import pytest
from django.contrib.auth import get_user_model

from ai_worker.engine import Board
from ai_worker.search import choose_move
from benchmarks import loadtest
from games import presenters, selectors
from games.identity import Player
from games.services import cpu, events, games


def flaky(failures: int) -> tuple[httpx.MockTransport, list[str]]:
    """A transport whose first ``failures`` requests end in a read error (a kept-alive
    connection closed by the server as it was reused), then answer 200."""
    seen: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if len(seen) <= failures:
            raise httpx.ReadError("connection closed", request=request)
        return httpx.Response(200, json={"status": "ok"})

    return httpx.MockTransport(handle), seen


def send(transport: httpx.MockTransport, figures: loadtest.Figures) -> httpx.Response:
    async def request() -> httpx.Response:
        async with httpx.AsyncClient(base_url="http://load.test", transport=transport) as http:
            return await loadtest.send(http, figures, "GET", "/healthz")

    return asyncio.run(request())


def test_a_request_cut_by_a_transient_error_is_sent_again_and_counted(monkeypatch) -> None:
    monkeypatch.setattr(loadtest, "RETRY_PAUSE", 0)
    transport, seen = flaky(2)
    figures = loadtest.Figures(seconds=1.0)
    assert send(transport, figures).status_code == 200
    assert (len(seen), figures.retries, figures.errors) == (3, 2, [])
    assert "retries (transient connection errors): 2" in loadtest.report(figures, 1, [])


def test_a_request_that_keeps_failing_is_raised_after_the_last_retry(monkeypatch) -> None:
    monkeypatch.setattr(loadtest, "RETRY_PAUSE", 0)
    transport, seen = flaky(loadtest.RETRIES + 1)
    figures = loadtest.Figures()
    with pytest.raises(httpx.ReadError):
        send(transport, figures)
    assert (len(seen), figures.retries) == (loadtest.RETRIES + 1, loadtest.RETRIES)


def unavailable_then_ok(busy: int) -> tuple[httpx.MockTransport, list[str]]:
    """A transport whose first ``busy`` requests are answered 503 with ``Retry-After`` (no
    pooled database connection in time, as the API answers it), then 200."""
    seen: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if len(seen) <= busy:
            return httpx.Response(503, headers={"Retry-After": "5"}, json={"error": {}})
        return httpx.Response(201, json={"id": "game"})

    return httpx.MockTransport(handle), seen


def post(transport: httpx.MockTransport, figures: loadtest.Figures, **options) -> httpx.Response:
    async def request() -> httpx.Response:
        async with httpx.AsyncClient(base_url="http://load.test", transport=transport) as http:
            return await loadtest.send(http, figures, "POST", "/api/games/", **options)

    return asyncio.run(request())


def test_a_503_with_retry_after_is_sent_again_once_it_has_passed(monkeypatch) -> None:
    """The soak's players were given up on the first 503 of an overloaded stack (104 errors
    of 200 players at a load of 14): the API asks its clients to come back after Retry-After."""
    monkeypatch.setattr(loadtest, "RETRY_AFTER_SHARE", 0)
    transport, seen = unavailable_then_ok(2)
    figures = loadtest.Figures(seconds=1.0)
    assert post(transport, figures).status_code == 201
    assert (len(seen), figures.unavailable, figures.retries, figures.errors) == (3, 2, 0, [])
    assert "503 answers sent again after their Retry-After: 2" in loadtest.report(figures, 1, [])


def test_the_last_503_is_returned_and_the_baseline_never_waits(monkeypatch) -> None:
    monkeypatch.setattr(loadtest, "RETRY_AFTER_SHARE", 0)
    transport, seen = unavailable_then_ok(loadtest.RETRIES + 5)
    figures = loadtest.Figures()
    assert post(transport, figures).status_code == 503
    assert (len(seen), figures.unavailable) == (loadtest.RETRIES + 1, loadtest.RETRIES)
    transport, seen = unavailable_then_ok(1)
    assert post(transport, figures, wait_when_unavailable=False).status_code == 503
    assert len(seen) == 1


class QuietSocket:
    """The client's side of a websocket that has sent nothing yet; what the client sends is
    kept (the view's messages are handed to it directly)."""

    close_code = None

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed = asyncio.Event()

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def __aiter__(self) -> "QuietSocket":
        return self

    async def __anext__(self) -> str:
        await self.closed.wait()
        raise StopAsyncIteration


def server_messages(player: Player) -> dict[str, dict]:
    """What the server sends a seat of a game against the easy CPU (the consumer's texts):
    the state on connect, the events of the player's first move and of the CPU's reply, and
    the state a resync gets after them."""
    game = games.create_cpu_game(
        player=player, variant={}, level="easy", color="black", undo_allowed=False
    )

    def state() -> dict:
        found = presenters.game_state(selectors.game(game.pk), viewer=player)
        return json.loads(json.dumps(presenters.game_event("state", found)))

    def move_event() -> dict:
        found = selectors.game(game.pk)
        message = events.group_message(found, kind="move", board=Board.from_text(found.position))
        return json.loads(message["texts"][events.SPECTATOR])

    connected = state()
    first = Board.from_text(game.position).legal_moves[0]
    games.play_move(player=player, public_id=game.public_id, notation=str(first), ply=0)
    own = move_event()
    job = selectors.cpu_job(game.pk, 1)
    assert job is not None
    reply = str(choose_move(job.board, "easy", seed=job.seed).move)
    assert cpu.apply_cpu_move(game_id=game.pk, ply=1, position=job.position, notation=reply)
    return {"connected": connected, "own": own, "reply": move_event(), "resynced": state()}


@pytest.mark.django_db
def test_a_resync_after_a_lost_event_ends_the_wait_for_the_players_turn() -> None:
    """The own move's event is lost: the CPU's reply shows the gap, the client asks for the
    state once (the next event, still past the gap, asks nothing), and the state that comes
    back, which carries both moves and no move event, gives the player its turn (the wait
    read move events only and timed out: an error in the max scenario)."""
    player = Player(user_id=get_user_model().objects.create(username="alice").pk)
    messages = server_messages(player)
    figures = loadtest.Figures()

    async def play() -> tuple[dict, list[dict]]:
        socket = QuietSocket()
        view = loadtest.GameView(socket, figures)  # type: ignore[arg-type]
        view.receive(0.0, messages["connected"])
        sent = time.perf_counter()
        view.receive(0.1, messages["reply"])  # versions 2 -> 4: the own move's (3) was lost
        view.receive(0.2, {**messages["reply"], "version": messages["reply"]["version"] + 1})
        await asyncio.sleep(0)  # the sync request leaves
        view.receive(0.3, messages["resynced"])
        deadline = time.perf_counter()
        turn = await asyncio.wait_for(
            loadtest.wait_for_turn(view, 0, sent, "easy", deadline, figures), timeout=5
        )
        socket.closed.set()
        view.close()
        return turn, socket.sent

    turn, sent = asyncio.run(play())
    assert messages["own"]["version"] == messages["connected"]["version"] + 1
    assert (turn["ply"], turn["to_move"], turn["version"]) == (
        2,
        "black",
        messages["resynced"]["version"],
    )
    assert sent == [{"type": "sync", "version": messages["connected"]["version"]}]
    assert figures.out_of_order == 1
    assert (figures.push, dict(figures.cpu_reply)) == ([], {})  # not known: none noted


def test_a_soak_socket_whose_handshake_times_out_is_opened_again(monkeypatch) -> None:
    """An overloaded stack answered no handshake within the client's timeout: the soak's
    client gave its player up (an error) instead of opening the socket again, as after a drop."""
    monkeypatch.setattr(loadtest, "OPEN_TIMEOUT", 0.2)

    def create(request: httpx.Request) -> httpx.Response:
        return httpx.Response(201, json={"id": "silent"})

    async def play() -> loadtest.Figures:
        silent = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
        port = silent.sockets[0].getsockname()[1]
        figures = loadtest.Figures()
        args = loadtest.parser().parse_args(["--drop-every", "20", "--think", "0"])
        transport = httpx.MockTransport(create)
        async with httpx.AsyncClient(base_url="http://load.test", transport=transport) as http:
            player = loadtest.Player(
                http, random.Random(1), loadtest.HOT_SEAT, f"http://127.0.0.1:{port}", args,
                "token", figures,
            )  # fmt: skip
            await asyncio.wait_for(loadtest.soak(player, time.perf_counter() + 1.0), 10)
        silent.close()
        return figures

    figures = asyncio.run(play())
    assert figures.games_started == 1
    assert figures.retries >= 2
    assert figures.errors == []


def test_the_clients_lag_is_how_late_its_loop_wakes() -> None:
    """A player's code that holds the loop (here 0.2 s of synchronous work) delays every
    latency this process measures; the lag shows it."""

    async def measure() -> loadtest.Figures:
        figures = loadtest.Figures()
        lag = asyncio.create_task(loadtest.measure_client_lag(time.perf_counter() + 0.5, figures))
        await asyncio.sleep(0.1)
        time.sleep(0.2)  # the loop held
        await lag
        return figures

    figures = asyncio.run(measure())
    assert len(figures.client_lag) >= 10
    assert max(figures.client_lag) >= 0.15
    assert loadtest.percentile(figures.client_lag, 0.5) < 0.05
