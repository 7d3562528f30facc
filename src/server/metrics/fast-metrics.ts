// The fast counter and histogram moved to machinery/metrics (every layer records with them); this
// path stays for the modules that still import it from here.
export * from '../../machinery/metrics/fast-metrics.ts';
