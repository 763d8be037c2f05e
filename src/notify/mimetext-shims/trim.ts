/**
 * Babel's `trim` instance-method helper without core-js (see define-property.ts): it returns
 * the receiver's own `trim`, which mimetext then calls on a string.
 */
export default function trim(receiver: { trim: () => string }): () => string {
  return receiver.trim;
}
