"""The bus's framing: any messages bundled for one node come out as they went in, in order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bistrot.server.bus import bundle, pack, pack_frame, unpack_all

# Any text a frame may carry (colons, digits, a leading "b" or "f": the framing must not care).
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
no_space = st.characters(blacklist_characters=" ", blacklist_categories=("Cs",))
conn_ids = st.text(no_space, min_size=1, max_size=12)
frames = st.tuples(conn_ids, texts)
objects = st.dictionaries(st.sampled_from(["op", "c", "t", "id"]), texts, min_size=1)


@given(st.lists(frames | objects, min_size=1, max_size=8))
def test_a_bundle_unpacks_to_its_messages_in_order(items):
    packed = [pack_frame(*item) if isinstance(item, tuple) else pack(item) for item in items]
    assert unpack_all(bundle(packed)) == items
