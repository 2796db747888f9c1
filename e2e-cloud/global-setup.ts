import { forgetTimes } from './journey-times';

export default function globalSetup(): void {
  forgetTimes();
}
