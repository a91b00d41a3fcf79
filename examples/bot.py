"""A reversi bot against the service's API: it accepts every challenge and plays a random legal
move whenever it is its turn, reading the event stream and each game's stream (no polling).

    python examples/bot.py http://127.0.0.1:8000 mybot "a long passphrase" [--games N]

It signs the account up (or uses it if it exists), asks for an access token with the scopes it
needs, upgrades the account to a bot (only an account that has never played may), then listens.
With ``--games N`` it stops after N finished games. Needs only httpx."""

import argparse
import json
import random
import threading
from collections.abc import Iterator

import httpx

STREAM_TIMEOUT = httpx.Timeout(10, read=60)  # the server sends an empty line every 5 s


def lines(client: httpx.Client, path: str) -> Iterator[dict]:
    """The JSON objects of an NDJSON stream, skipping the keep-alive empty lines."""
    with client.stream("GET", path, timeout=STREAM_TIMEOUT) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.strip():
                yield json.loads(line)


def access_token(url: str, username: str, password: str) -> str:
    """Sign up (a taken name is fine: it may be ours), then trade the password for a token."""
    with httpx.Client(base_url=url) as anonymous:
        anonymous.post("/api/auth/signup/", json={"username": username, "password": password})
        terms = {"name": "examples/bot.py", "scopes": ["read", "play", "challenge"]}
        answer = anonymous.post(
            "/api/auth/token/", json={"username": username, "password": password, **terms}
        )
        answer.raise_for_status()
        return answer.json()["token"]


def play(client: httpx.Client, game_id: str) -> None:
    """Follow one game's stream; move whenever it says it is our turn. ``gameFull`` has the
    whole state (``you``: our colours); a ``gameState`` event has the whole state, or for a
    move only what changed (``to_move``, ``legal_moves``, ``ply``, ``status`` either way)."""
    you: list[str] = []
    for event in lines(client, f"/api/bot/game/stream/{game_id}/"):
        if event["type"] == "gameFull":
            state = event["state"]
            you = state["you"]
        else:
            state = event["event"].get("state", event["event"])
        if state["status"] == "finished":
            return
        if state["to_move"] in you and state["legal_moves"]:
            move = random.choice(sorted(state["legal_moves"]))
            answer = client.post(
                f"/api/games/{game_id}/moves/", json={"move": move, "ply": state["ply"]}
            )
            if answer.status_code != 409:  # 409: the game moved on meanwhile; the stream says how
                answer.raise_for_status()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("username")
    parser.add_argument("password")
    parser.add_argument("--games", type=int, default=0, help="stop after this many (0: never)")
    args = parser.parse_args()
    token = access_token(args.url, args.username, args.password)
    client = httpx.Client(base_url=args.url, headers={"Authorization": f"Bearer {token}"})
    client.post("/api/bot/account/upgrade/").raise_for_status()
    print(f"{args.username} is a bot, waiting for challenges", flush=True)
    playing: set[str] = set()
    finished = 0
    for event in lines(client, "/api/stream/event/"):
        if event["type"] == "challenge" and event["challenge"]["incoming"]:
            challenge = event["challenge"]
            answer = client.post(f"/api/challenges/{challenge['id']}/accept/")
            print(f"{challenge['challenger']}'s challenge: {answer.status_code}", flush=True)
        elif event["type"] == "gameStart" and event["game"]["id"] not in playing:
            playing.add(event["game"]["id"])
            threading.Thread(target=play, args=(client, event["game"]["id"]), daemon=True).start()
        elif event["type"] == "gameFinish":
            finished += 1
            print(f"game {event['game']['id']} over: {event['game']['result']}", flush=True)
            if finished == args.games:
                return


if __name__ == "__main__":
    main()
