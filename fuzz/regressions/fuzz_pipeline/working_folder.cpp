// Any source: parsing it once moved the whole process into the compile command's folder.
int answer() { return 42; }
