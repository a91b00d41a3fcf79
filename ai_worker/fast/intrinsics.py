"""LLVM intrinsics numba does not expose: popcount, trailing zeros, ``clock_gettime``."""

from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def _popcount(typingctx, x):
    """Number of set bits of a uint64 (one ``ctpop`` instruction)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _lowest_bit_index(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (``cttz``)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _clock_ns(typingctx, clock_id):
    """``clock_gettime(clock_id)`` in nanoseconds (``time.CLOCK_*`` ids), callable from
    nopython code."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        i64 = ir.IntType(64)
        timespec = ir.ArrayType(i64, 2)
        fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [builder.trunc(args[0], i32), ts])
        zero = ir.Constant(i32, 0)
        seconds = builder.load(builder.gep(ts, [zero, zero]))
        nanos = builder.load(builder.gep(ts, [zero, ir.Constant(i32, 1)]))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanos)

    return sig, codegen


@intrinsic
def _highest_bit_index(typingctx, x):
    """Index of the highest set bit of a non-zero uint64 (63 - ``ctlz``)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return sig, codegen


# numba types an intrinsic's Python signature as (typing context, arguments); these are the
# signatures the kernels call them with.
popcount = cast(Callable[[Any], int], _popcount)
lowest_bit_index = cast(Callable[[Any], int], _lowest_bit_index)
highest_bit_index = cast(Callable[[Any], int], _highest_bit_index)
clock_ns = cast(Callable[[int], int], _clock_ns)
