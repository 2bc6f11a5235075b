"""The framings without I/O: chunks split anywhere, messages fused, bad headers."""

import pytest

from bunting._framing import LspDecoder, NdjsonDecoder, encode_lsp, encode_ndjson
from bunting.errors import ProtocolError

BODIES = [b'{"jsonrpc":"2.0","id":1,"result":{}}', b'{"a":"\xc3\xa9\\n"}', b"[]"]


@pytest.mark.parametrize("decoder, encode", [(NdjsonDecoder, encode_ndjson), (LspDecoder, encode_lsp)])
def test_a_byte_at_a_time_and_all_at_once(decoder, encode):
    stream = b"".join(encode(body) for body in BODIES)
    one = decoder()
    got = []
    for index in range(len(stream)):
        got += one.feed(stream[index:index + 1])
    assert got == BODIES
    assert one.pending == 0
    assert decoder().feed(stream) == BODIES


@pytest.mark.parametrize("decoder, encode", [(NdjsonDecoder, encode_ndjson), (LspDecoder, encode_lsp)])
def test_every_split_point(decoder, encode):
    stream = b"".join(encode(body) for body in BODIES)
    for cut in range(len(stream) + 1):
        one = decoder()
        assert one.feed(stream[:cut]) + one.feed(stream[cut:]) == BODIES, cut


def test_ndjson_skips_blank_lines_and_drops_a_trailing_cr():
    assert NdjsonDecoder().feed(b'\n  \n{"a":1}\r\n\r\n{"b":2}\n') == [b'{"a":1}', b'{"b":2}']


def test_ndjson_keeps_a_line_without_newline_for_later():
    decoder = NdjsonDecoder()
    assert decoder.feed(b'{"a":1}') == []
    assert decoder.pending == 7
    assert decoder.feed(b"\n") == [b'{"a":1}']


def test_lsp_headers_are_case_insensitive_and_others_are_ignored():
    stream = b'content-LENGTH: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}'
    assert LspDecoder().feed(stream) == [b"{}"]


def test_lsp_length_counts_bytes_not_characters():
    body = '{"s":"\u00e9\u20ac"}'.encode()
    assert encode_lsp(body).startswith(b"Content-Length: %d\r\n\r\n" % len(body))
    assert LspDecoder().feed(encode_lsp(body)) == [body]


@pytest.mark.parametrize("stream", [b"Content-Length: x\r\n\r\n", b"Content-Type: a\r\n\r\n{}", b"nonsense\r\n\r\n"])
def test_lsp_bad_headers_are_protocol_errors(stream):
    with pytest.raises(ProtocolError):
        LspDecoder().feed(stream)


@pytest.mark.parametrize("decoder, encode", [(NdjsonDecoder, encode_ndjson), (LspDecoder, encode_lsp)])
def test_a_body_of_many_chunks_with_the_next_one_fused_to_its_end(decoder, encode):
    large = b'{"s":"' + b"x" * 300_000 + b'"}'
    stream = encode(large) + encode(BODIES[0]) + encode(BODIES[1])[:5]
    one = decoder()
    got = []
    for start in range(0, len(stream), 4096):
        got += one.feed(stream[start:start + 4096])
    assert got == [large, BODIES[0]]
    assert one.pending == 5
    assert one.feed(encode(BODIES[1])[5:]) == [BODIES[1]] and one.pending == 0
