from kassen.cli.main import main

main()
