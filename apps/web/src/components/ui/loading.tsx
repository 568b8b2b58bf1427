import Spinner from 'react-bootstrap/Spinner';

/** The loading indicator (role="status"). */
export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="d-flex justify-content-center py-5">
      <Spinner animation="border" role="status">
        <span className="visually-hidden">{label}</span>
      </Spinner>
    </div>
  );
}
