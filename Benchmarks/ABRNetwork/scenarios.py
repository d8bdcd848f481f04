"""The network scenarios of Benchmarks/abr-network.sh: the link's rate over time, counted
from the player's launch, and the shaper settings for a rate."""

MBIT = 1_000_000

# name: (description, [(seconds from launch, rate in bit/s), ...], low phase or None)
# The low phase (start, end, rate) is where the dip check looks: segment requests of a
# level above DIP_CHECK_BPS started more than DIP_CHECK_AFTER seconds into it.
SCENARIOS = {
    "const2": ("constant 2 Mbit/s", [(0, 2 * MBIT)], None),
    "const6": ("constant 6 Mbit/s", [(0, 6 * MBIT)], None),
    "dip08": ("6 -> 0.8 Mbit/s at 30 s -> 6 at 80 s",
              [(0, 6 * MBIT), (30, 800_000), (80, 6 * MBIT)], (30, 80, 800_000)),
    "stall03": ("6 -> 0.3 Mbit/s at 30 s -> 6 at 60 s",
                [(0, 6 * MBIT), (30, 300_000), (60, 6 * MBIT)], (30, 60, 300_000)),
}

DIP_CHECK_BPS = 550_000
DIP_CHECK_AFTER = 12.0

# tbf: a bucket of 1/50 s of the rate but at least 15 kB (a few full-size packets, so the
# low rates still pass whole TCP segments), and 300 ms of queue before packets drop.
LATENCY_MS = 300


def tbf_arguments(rate_bps):
    burst = max(rate_bps // 8 // 50, 15_000)
    return ["tbf", "rate", f"{rate_bps}bit", "burst", str(burst), "latency", f"{LATENCY_MS}ms"]


def describe_rate(rate_bps):
    return f"{rate_bps / MBIT:g} Mbit/s"
