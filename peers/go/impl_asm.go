//go:build !noasm

package main

const implName, backendName = "yawning-aez-go", "amd64 assembly"
