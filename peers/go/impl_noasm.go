//go:build noasm

package main

const implName, backendName = "yawning-aez-go-noasm", "ct64 bitsliced (noasm)"
