"""Bitboard geometry of one board shape: masks, direction shifts and move generation.

A set of squares is a Python int whose bit ``row * width + col`` is the square. Each of
the eight directions is a shift plus a *source* mask of the squares whose neighbour in that
direction is still inside the width x height rectangle, so shifts never wrap around an edge.
Walls and the cut corners of the octagon hold no disc, so they break every line by
themselves.
"""

from __future__ import annotations

# Reading order (dc, dr); `Board.flips_for` breaks ties between equally near discs in this order.
DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


class Geometry:
    """Masks and move generation of one variant's board (shape plus walls)."""

    def __init__(self, width: int, height: int, playable: int, walls: int, centre: int) -> None:
        self.width = width
        self.height = height
        self.playable = playable
        self.walls = walls
        self.cells = playable & ~walls
        self.centre = centre
        left: list[tuple[int, int]] = []
        right: list[tuple[int, int]] = []
        for dc, dr in DIRECTIONS:
            source = 0
            for row in range(height):
                for col in range(width):
                    if 0 <= col + dc < width and 0 <= row + dr < height:
                        source |= 1 << (row * width + col)
            source &= self.cells  # only squares that can hold a disc continue a line
            shift = dr * width + dc
            if shift > 0:
                left.append((shift, source))
            else:
                right.append((-shift, source))
        self._left = tuple(left)
        self._right = tuple(right)

    def moves(self, own: int, others: int, empty: int) -> int:
        """Empty squares that bracket a line of ``others`` up to an ``own`` disc."""
        moves = 0
        for shift, source in self._left:
            line = ((own & source) << shift) & others
            run = line
            while line:
                line = ((line & source) << shift) & others
                run |= line
            moves |= (run & source) << shift
        for shift, source in self._right:
            line = ((own & source) >> shift) & others
            run = line
            while line:
                line = ((line & source) >> shift) & others
                run |= line
            moves |= (run & source) >> shift
        return moves & empty

    def flips(self, square: int, own: int, others: int) -> int:
        """Discs that a disc placed on ``square`` flips: every bracketed line, no chains."""
        start = 1 << square
        flips = 0
        for shift, source in self._left:
            step = (start & source) << shift
            run = 0
            while step & others:
                run |= step
                step = (step & source) << shift
            if step & own:
                flips |= run
        for shift, source in self._right:
            step = (start & source) >> shift
            run = 0
            while step & others:
                run |= step
                step = (step & source) >> shift
            if step & own:
                flips |= run
        return flips

    def neighbours(self, squares: int) -> int:
        """Squares touching any of ``squares`` by an edge or a corner."""
        touching = 0
        for shift, source in self._left:
            touching |= (squares & source) << shift
        for shift, source in self._right:
            touching |= (squares & source) >> shift
        return touching & self.cells
