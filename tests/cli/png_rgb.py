"""png_rgb.py: read an 8-bit RGB PNG with nothing but zlib, for the CLI
tests that check quench's pictures pixel by pixel (t143). read(path)
gives (width, height, pixel) where pixel(x, y) is 0xRRGGBB."""
import struct
import zlib


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('no PNG signature')
    at, chunks = 8, {}
    while at < len(data):
        size, = struct.unpack('>I', data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + size]
        if struct.unpack('>I', data[at + 8 + size:at + 12 + size])[0] != \
                zlib.crc32(kind + body):
            raise ValueError('bad CRC in %r' % kind)
        chunks.setdefault(kind, []).append(body)
        at += 12 + size
    width, height, depth, kind, _, _, lace = struct.unpack(
        '>IIBBBBB', chunks[b'IHDR'][0])
    if (depth, kind, lace) != (8, 2, 0):
        raise ValueError('not 8-bit RGB without interlace')
    raw = zlib.decompress(b''.join(chunks[b'IDAT']))
    stride = 3 * width
    out, up = bytearray(), bytearray(stride)
    for y in range(height):
        base = y * (stride + 1)
        filt, cur = raw[base], bytearray(raw[base + 1:base + 1 + stride])
        for i in range(stride):
            left = cur[i - 3] if i >= 3 else 0
            diag = up[i - 3] if i >= 3 else 0
            pred = (0, left, up[i], (left + up[i]) // 2,
                    _paeth(left, up[i], diag))[filt]
            cur[i] = (cur[i] + pred) & 255
        out += cur
        up = cur

    def pixel(x, y):
        i = 3 * (y * width + x)
        return out[i] << 16 | out[i + 1] << 8 | out[i + 2]
    return width, height, pixel
