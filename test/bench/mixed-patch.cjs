// The mixed run's PATCH body (autocannon's worker thread requires it by path): a new session title every
// time, so each PATCH is a real change, whichever connection sends it.
let sent = 0;
const run = `${process.pid}-${Date.now().toString(36)}`;
module.exports = (request) => {
  const id = request.path.split('/').pop();
  return {
    ...request,
    body: JSON.stringify({ data: { type: 'session', id, attributes: { title: `Mixed ${run} ${sent++}` } } }),
  };
};
