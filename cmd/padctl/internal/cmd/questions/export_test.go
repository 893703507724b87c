package questions

// Sync runs questions pull, diff or apply with o, as the command does
// after its flags are read.
func Sync(command string, o *SyncOptions) error {
	switch command {
	case "pull":
		return pullRun(o)
	case "diff":
		return diffRun(o)
	case "apply":
		return applyRun(o)
	}
	panic("no sync command " + command)
}
