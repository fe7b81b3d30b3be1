/** A user's file -> a Collection document (ragwasm/parse). */
export function fileToDocument(file: Blob | { name: string; data: Uint8Array | ArrayBuffer; type?: string }, options?: { id?: string; limits?: Partial<import('./limits.js').FileLimits> }):
  Promise<{ id: string; title: string; text: string; metadata: { name: string; format: string } }>;
