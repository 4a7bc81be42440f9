"""The latency histograms' log-linear buckets (include/rs_common.h), for
tests that check a recording's histograms against its event records: 16
buckets per power of two, bucket b holding (hi(b - 1), hi(b)] ns."""

SUB_BITS = 4
SUBS = 1 << SUB_BITS
OCTAVES = 34
BUCKETS = OCTAVES * SUBS
MAX_NS = 1 << 37


def bucket(ns):
    """The bucket holding ns (clamped to the last), as the BPF side picks."""
    x = min(max(ns - 1, 0), MAX_NS - 1)
    if x < SUBS:
        return x
    k = x.bit_length() - 1
    return (k - SUB_BITS + 1) * SUBS + ((x >> (k - SUB_BITS)) & (SUBS - 1))


def bucket_hi(b):
    octave, sub = divmod(b, SUBS)
    return sub + 1 if octave == 0 else (1 << (octave - 1)) * (SUBS + 1 + sub)


def quantile_ns(pairs, q, log2=False):
    """Quantile q of [[bound_ns, count], ...] as report computes it: the
    bucket holding rank q * count, interpolated linearly inside it (a log2
    histogram, from a recording before schema 3: its bound)."""
    merged = {}
    for bound, n in pairs:  # a bound given twice is one bucket, as in C
        if n:
            merged[bound] = merged.get(bound, 0) + n
    count = sum(merged.values())
    if not count:
        return None
    rank, seen = q * count, 0
    for bound, n in sorted(merged.items()):
        if seen + n >= rank:
            if log2:
                return bound
            b = bucket(bound)
            lo = bucket_hi(b - 1) if b else 0
            return lo + (bound - lo) * min(max((rank - seen) / n, 0), 1)
        seen += n
    return max(merged)


def exact_quantile_ns(values, q):
    """The value of rank ceil(q * n) among the values (q * n at least 1)."""
    values = sorted(values)
    rank = q * len(values)
    i = max(int(rank) if rank == int(rank) else int(rank) + 1, 1)
    return values[i - 1]
