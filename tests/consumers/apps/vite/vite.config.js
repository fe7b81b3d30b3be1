// Module Workers that import ragwasm need ES output (Vite's default worker format is iife).
export default { worker: { format: 'es' } };
