// Vision library umbrella header (issue 3).
