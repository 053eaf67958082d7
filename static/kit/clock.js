// Time left on a clock, as the boards write it: "2d 23h", "4h 10m", "1:05", "9s".

export function formatClock(secs) {
  if (secs >= 86400) return `${Math.floor(secs / 86400)}d ${Math.floor((secs % 86400) / 3600)}h`;
  if (secs >= 3600) return `${Math.floor(secs / 3600)}h ${Math.floor((secs % 3600) / 60)}m`;
  if (secs >= 60) return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  return `${secs}s`;
}

/** Whole seconds until an ISO `deadline` on the server's clock (`skew` ms ahead of ours). */
export function secondsLeft(deadline, skew = 0) {
  if (!deadline) return null;
  return Math.max(0, Math.ceil((Date.parse(deadline) - (Date.now() + skew)) / 1000));
}
