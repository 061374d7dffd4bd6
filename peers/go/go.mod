module aeslab/peers/go

go 1.26.0

require (
	github.com/Yawning/aez v0.0.0-20211027044916-e49e68abd344
	gitlab.com/yawning/bsaes.git v0.0.0-20190805113838-0a714cd429ec // indirect
)

require (
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
