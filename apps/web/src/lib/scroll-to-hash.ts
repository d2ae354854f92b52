/**
 * Spec §2: a hash target is scrolled into view after navigation, polling up to 1 s at 50 ms
 * steps (the target may render only after its data arrives). Returns a cancel function.
 */
export function scrollToHash(hash: string, timeoutMs = 1_000, stepMs = 50): () => void {
  const id = decodeURIComponent(hash.replace(/^#/, ''));
  if (!id) return () => {};
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = () => {
    const target = document.getElementById(id);
    if (target) {
      target.scrollIntoView();
      return;
    }
    if (Date.now() - started + stepMs <= timeoutMs) timer = setTimeout(attempt, stepMs);
  };
  attempt();
  return () => clearTimeout(timer);
}
