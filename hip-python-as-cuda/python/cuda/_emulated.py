"""CUDA runtime functions HIP has no single function for, composed of HIP's own calls (each
releases the GIL itself): `cudaMemcpy3DPeer(Async)` is `hipMemcpy3D(Async)` with
`hipMemcpyDefault` (unified addressing finds each side's device), and
`cudaMemcpyArrayToArray` copies `count` bytes row by row through
`hipMemcpy2DArrayToArray`, splitting where either array's row ends."""

from __future__ import annotations

from hip import hip

from . import _conventions, _native

__all__ = ["cudaMemcpy3DPeer", "cudaMemcpy3DPeerAsync", "cudaMemcpyArrayToArray"]

_ERR = hip.hipError_t
#: The fields `cudaMemcpy3DPeerParms` and `hipMemcpy3DParms` share.
_SHARED_3D = ("srcArray", "srcPos", "srcPtr", "dstArray", "dstPos", "dstPtr", "extent")


def memcpy3d_params(p) -> hip.hipMemcpy3DParms:
    """HIP's 3D copy parameters for CUDA's peer copy parameters `p`."""
    # The class exists once `cuda.bindings.runtime` made it, as it must have to make `p`.
    cls = _conventions.made_type("cudaMemcpy3DPeerParms")
    if cls is None or not isinstance(p, cls):
        got = type(p).__name__
        raise TypeError(f"Argument 'p' is not instance of type (expected cudaMemcpy3DPeerParms, got {got})")
    q = hip.hipMemcpy3DParms()
    for name in _SHARED_3D:
        setattr(q, name, getattr(p, name))
    q.kind = hip.hipMemcpyKind.hipMemcpyDefault
    return q


def cudaMemcpy3DPeer(p):  # noqa: N802 (CUDA's name)
    """CUDA's `cudaMemcpy3DPeer`: a 3D copy between devices; returns `(status,)`."""
    return hip.hipMemcpy3D(memcpy3d_params(p))


def cudaMemcpy3DPeerAsync(p, stream):  # noqa: N802 (CUDA's name)
    """CUDA's `cudaMemcpy3DPeerAsync`: `cudaMemcpy3DPeer` on `stream`; returns `(status,)`."""
    return hip.hipMemcpy3DAsync(memcpy3d_params(p), stream)


def _row_bytes(array) -> tuple:
    """`(status, bytes in one row)` of a HIP array."""
    desc, extent = hip.hipChannelFormatDesc(), hip.hipExtent()
    err, _ = hip.hipArrayGetInfo(desc, extent, array)
    if err != _ERR.hipSuccess:
        return err, 0
    return err, extent.width * ((desc.x + desc.y + desc.z + desc.w) // 8)


def row_segments(count: int, dst: tuple[int, int, int], src: tuple[int, int, int]):
    """The `(dst x, dst y, src x, src y, bytes)` pieces of a row-major copy of `count` bytes.

    `dst` and `src` are `(x offset in bytes, row, row length in bytes)`; each piece stays in
    one row of both arrays. Raises ValueError where an offset lies outside its row.
    """
    (xd, yd, rd), (xs, ys, rs) = dst, src
    if count < 0 or not (0 <= xd < rd or count == 0) or not (0 <= xs < rs or count == 0):
        raise ValueError("offset outside the array's row")
    while count > 0:
        n = min(count, rd - xd, rs - xs)
        yield xd, yd, xs, ys, n
        count -= n
        xd, xs = xd + n, xs + n
        if xd == rd:
            xd, yd = 0, yd + 1
        if xs == rs:
            xs, ys = 0, ys + 1


def _size(value, name: str) -> int:
    """A `size_t` argument (the HIP calls get values computed from it, not it)."""
    return _native.integer(value, 8, False, f"argument '{name}'")


def _array(value, name: str) -> None:
    """Refuses what is no array handle (None, an address, an array object) before any call."""
    if value is not None:
        _native.address(value, f"argument '{name}'")


def cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind=None):  # noqa: N802, N803 (CUDA's names)
    """CUDA's `cudaMemcpyArrayToArray`: `count` bytes from `src` at `(wOffsetSrc, hOffsetSrc)`
    to `dst` at `(wOffsetDst, hOffsetDst)`; returns `(status,)`."""
    # Checked before any call, as a function taking them would check them.
    _array(dst, "dst")
    _array(src, "src")
    if kind is None:
        kind = hip.hipMemcpyKind.hipMemcpyDeviceToDevice
    else:
        kind = _native.integer(kind, 4, True, "argument 'kind'")
        try:
            kind = hip.hipMemcpyKind(kind)
        except ValueError:
            return (_ERR.hipErrorInvalidMemcpyDirection,)
    dst_x, dst_y = _size(wOffsetDst, "wOffsetDst"), _size(hOffsetDst, "hOffsetDst")
    src_x, src_y = _size(wOffsetSrc, "wOffsetSrc"), _size(hOffsetSrc, "hOffsetSrc")
    count = _size(count, "count")
    err, dst_row = _row_bytes(dst)
    if err != _ERR.hipSuccess:
        return (err,)
    err, src_row = _row_bytes(src)
    if err != _ERR.hipSuccess:
        return (err,)
    try:
        pieces = list(row_segments(count, (dst_x, dst_y, dst_row), (src_x, src_y, src_row)))
    except ValueError:
        return (_ERR.hipErrorInvalidValue,)
    for xd, yd, xs, ys, n in pieces:
        (err,) = hip.hipMemcpy2DArrayToArray(dst, xd, yd, src, xs, ys, n, 1, kind)
        if err != _ERR.hipSuccess:
            return (err,)
    return (_ERR.hipSuccess,)


# They stand for the runtime module's functions, as the stubs they replace did.
for _name in __all__:
    globals()[_name].__module__ = "cuda.bindings.runtime"
