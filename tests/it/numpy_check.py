# Loads nimsieve's binary outputs with NumPy exactly as docs/formats.md shows, and checks them
# against the CSV. Arguments: the grundy stem and the ppos stem (without extensions).
import json
import struct
import sys
import zlib

import numpy as np

grundy, ppos = sys.argv[1], sys.argv[2]
csv = np.loadtxt(grundy + ".csv", delimiter=",", skiprows=1, dtype=np.int64)[:, 1]

g = np.load(grundy + ".npy", mmap_mode="r")
assert g.dtype == np.uint8 and (g == csv).all()

raw = open(grundy + ".bin", "rb").read()
magic, version, content, n, bits, L, crc, P = struct.unpack_from("<8sIIQIIII", raw)
made = json.loads(raw[40 + -(-L // 8) * 8 :][:P] or "null")
payload = np.frombuffer(raw, np.uint8, offset=40 + -(-L // 8) * 8 + -(-P // 8) * 8)
assert magic == b"NIMSIEVE" and version == 3 and content == 0 and zlib.crc32(raw[:32] + bytes(4) + raw[36:]) == crc
assert made["nimsieve"] and made["command"].startswith("nimsieve grundy squares") and made["date"].endswith("Z")
if bits < 8:
    values = np.unpackbits(payload, bitorder="little").reshape(-1, bits) @ (1 << np.arange(bits))
else:
    values = payload.view(f"<u{bits // 8}")
assert (values[:n] == csv).all() and raw[40 : 40 + L] == b"squares"

p = np.load(ppos + ".npy", mmap_mode="r")
assert (p == np.flatnonzero(csv == 0)).all()
assert (np.fromfile(ppos + ".u64", dtype="<u8") == p).all()
print("numpy check passed:", len(g), "values,", len(p), "P-positions")
