"""Every device attribute of device 0 through `cuda.bindings` (whichever package is first on
the path), to compare NVIDIA's cuda-bindings with ours on one GPU (docs/cuda.md):

    python3 tools/cuda_attributes.py ask OUT.json [NAMES.json]
    python3 tools/cuda_attributes.py compare NVIDIA.json OURS.json

`ask` writes {"driver": {CU_DEVICE_ATTRIBUTE_*: [status, value]}, "runtime": {cudaDevAttr*:
...}}; given NVIDIA's file, it asks for the same names.
"""

import json
import sys


def ask(out_path, names_path=None):
    from cuda.bindings import driver, runtime

    driver.cuInit(0)
    _, dev = driver.cuDeviceGet(0)
    given = json.load(open(names_path)) if names_path else None
    out = {"driver": {}, "runtime": {}}
    for kind, enum, prefix, call, arg in (
        ("driver", driver.CUdevice_attribute, "CU_DEVICE_ATTRIBUTE_", driver.cuDeviceGetAttribute, dev),
        ("runtime", runtime.cudaDeviceAttr, "cudaDevAttr", runtime.cudaDeviceGetAttribute, 0),
    ):
        names = (
            given[kind]
            if given
            else [n for n in enum.__members__ if n.startswith(prefix) and not n.endswith(("_MAX", "Max"))]
        )
        for name in names:
            member = getattr(enum, name, None)
            if member is None:
                out[kind][name] = ["missing", None]
                continue
            err, value = call(member, arg)
            ok = int(err) == 0
            out[kind][name] = [0 if ok else getattr(err, "name", str(err)), value if ok else None]
    json.dump(out, open(out_path, "w"), indent=0, default=str)


def compare(nvidia_path, ours_path):
    nvidia, ours = json.load(open(nvidia_path)), json.load(open(ours_path))
    for kind in ("driver", "runtime"):
        answered = [n for n, r in nvidia[kind].items() if r[0] == 0]
        same = [n for n in answered if nvidia[kind][n] == ours[kind].get(n)]
        print(f"{kind}: NVIDIA answers {len(answered)} of {len(nvidia[kind])}; ours the same for {len(same)}")
        for name in answered:
            if name not in same:
                print(f"  {name}: NVIDIA {nvidia[kind][name]}, ours {ours[kind].get(name)}")


if __name__ == "__main__":
    {"ask": ask, "compare": compare}[sys.argv[1]](*sys.argv[2:])
