// @ts-check
// Handle: owns one Embind object. dispose() frees it at once; a FinalizationRegistry frees it if the
// caller forgets (a safety net, not a schedule: call dispose() or use `using`).
import { RagwasmError } from './errors.js';
import { expectInternal, hasMethod } from './validate.js';

const registry = new FinalizationRegistry((native) => {
  try {
    if (!native.isDeleted()) native.delete();
  } catch {
    // the module may already be gone at shutdown; nothing to free then
  }
});

export class Handle {
  /** @param {object} native an Embind class instance */
  constructor(native) {
    // Subclasses are built by their factories (create/load/from...) around an Embind object.
    expectInternal(hasMethod(native, 'delete') && hasMethod(native, 'isDeleted'),
      new.target.name, `${new.target.name}'s static factory methods (create, load, ...)`);
    this._native = native;
    registry.register(this, native, this);
  }

  /** The Embind object; throws DISPOSED after dispose(). Library modules only (@internal). */
  get native() {
    if (this._native === null) {
      throw new RagwasmError('DISPOSED', `ragwasm: this ${this.constructor.name} was disposed; create a new one`);
    }
    return this._native;
  }

  /** True once dispose() was called. */
  get disposed() {
    return this._native === null;
  }

  /** Frees the WASM memory now. Safe to call twice. */
  dispose() {
    if (this._native !== null) {
      registry.unregister(this);
      this._native.delete();
      this._native = null;
    }
  }

  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
    this.dispose();
  }
}
