import { reportTimes } from './journey-times';

export default function globalTeardown(): void {
  reportTimes();
}
