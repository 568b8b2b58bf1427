/** Placeholder for the screens of later issues; the URL, query string included, stays as it is. */
export function ComingSoonRoute() {
  return (
    <section className="py-5 text-center">
      <h1 className="fs-3">Coming soon</h1>
      <p className="text-body-secondary mb-0">This screen is not available yet.</p>
    </section>
  );
}
