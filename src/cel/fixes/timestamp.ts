export function timestampParts(d: Date): { seconds: bigint; nanos: number } {
  const ms = BigInt(d.getTime());
  const s = ms >= 0n ? ms / 1000n : -((-ms + 999n) / 1000n);
  return { seconds: s, nanos: Number(ms - s * 1000n) * 1e6 };
}
