#!/usr/bin/env bash
# A stand-in for commtune that accepts every input: the corpus must report it (badinput_corpus_can_fail).
exit 0
