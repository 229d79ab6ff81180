"""Play one deal on a live table: the platform deals and creates the table, each seat plays
through its own token (the 托管 move, T-10, chosen by the referee). BAOHUANG_URL, optional
BAOHUANG_KEY (a platform key; none on a development service)."""

import os
import sys

from baohuang_client import AuthenticatedClient, Client
from baohuang_client.api.before_play import deal_hands
from baohuang_client.api.play import get_auto_move
from baohuang_client.api.tables import create_table, get_table
from baohuang_client.models import DealRequest, PlatformTable, PostMove, PutTable, SnapshotRequest
from baohuang_client_live import ok, post_move

url, key = os.environ.get("BAOHUANG_URL", "http://127.0.0.1:8000"), os.environ.get("BAOHUANG_KEY")
platform = AuthenticatedClient(url, token=key) if key else Client(url)
table_id = sys.argv[1] if len(sys.argv) > 1 else "newcomer-1"

dealt = ok(deal_hands.sync(client=platform, body=DealRequest(seed=2026, dealer=0)))
created = ok(create_table.sync(table_id, client=platform, body=PutTable(snapshot=dealt.snapshot)))
seats = [AuthenticatedClient(url, token=token) for token in created.seat_tokens]

moves = 0
while True:
    table = ok(get_table.sync(table_id, client=platform))
    assert isinstance(table, PlatformTable)  # audience "platform": its view is the whole snapshot
    if table.view.over:
        break
    move = ok(get_auto_move.sync(client=platform, body=SnapshotRequest(snapshot=table.view))).move
    assert move is not None  # the deal is not over, so some seat is to act
    answer = post_move(seats[move.seat], table_id, PostMove(move=move, version=table.version))
    assert answer.status_code == 200, answer.content  # the seat's own token, its own view back
    moves += 1

print(f"deal over after {moves} moves: positions {table.view.positions}")
