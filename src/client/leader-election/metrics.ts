// What a leader elector reports, as client-go's tools/leaderelection/metrics.go: whether it holds
// its lease (on/off, by the election's name) and each renewal that had to take the slow path
// (read the lease again because the optimistic update failed or the lease looked expired). The
// elector knows this interface only; the controller manager records it in its own registry.

export interface LeaderMetrics {
  /** This elector now holds the lease named `name`. */
  on(name: string): void;
  /** This elector does not hold it (made, lost, or stopped). */
  off(name: string): void;
  /** The leader renewed through the slow path. */
  slowpathExercised(name: string): void;
}
