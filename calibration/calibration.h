// Calibration library umbrella header (issue 3).
