"""A restart of the server (file-system sessions) keeps the game going."""

from __future__ import annotations

from benchmarks.load_test import Player


def test_restart_mid_game_and_play_on(serve, tmp_path):
    env = {"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")}
    server = serve(env)
    player = Player(server.url)
    player.new_game()
    for _ in range(5):
        player.play()
    hand, move = player.hand, player.move

    server.stop()
    server.start()
    player.get("/game")
    assert (player.hand, player.move) == (hand, move)
    summary = player.finish()
    assert summary["finished"] and summary["plays"] == 48
    assert sum(team["cards"] for team in summary["teams"]) == 52
