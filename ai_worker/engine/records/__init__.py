"""Game records of the engine: the plain transcript, GGF, OBF and the JSON form, and the names
of the well-known 8x8 openings. Pure functions over the engine (no Django, no I/O but reading
the openings table); each format's module docstring says what it reads, writes and rejects."""

from ai_worker.engine.records.ggf import read_ggf, write_ggf
from ai_worker.engine.records.jsonform import record_from_json, record_to_json
from ai_worker.engine.records.obf import read_obf, write_obf
from ai_worker.engine.records.openings import LANGUAGES, NamedOpening, named_openings, opening_name
from ai_worker.engine.records.record import (
    RESULT_REASONS,
    GameRecord,
    Player,
    RecordedMove,
    RecordError,
    Result,
    TimeControl,
    black_margin,
)
from ai_worker.engine.records.transcript import read_transcript, write_transcript

__all__ = [
    "LANGUAGES",
    "RESULT_REASONS",
    "GameRecord",
    "NamedOpening",
    "Player",
    "RecordError",
    "RecordedMove",
    "Result",
    "TimeControl",
    "black_margin",
    "named_openings",
    "opening_name",
    "read_ggf",
    "read_obf",
    "read_transcript",
    "record_from_json",
    "record_to_json",
    "write_ggf",
    "write_obf",
    "write_transcript",
]
